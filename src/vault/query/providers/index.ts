// Optional providers for the query pipeline's model stages (expansion by a chat model, rerank
// by a `/rerank` endpoint or chat scoring), their configuration from the environment, and the
// fallbacks to the deterministic stages. HTTP only when a query runs, never on import.
export { type RemoteStage, stageLabel } from './chat.js';
export {
  createQueryStages,
  DEFAULT_EXTRACTION_TIMEOUT_MS,
  DEFAULT_STAGE_TIMEOUT_MS,
  EXPANSION_KINDS,
  EXTRACTION_KINDS,
  RERANK_KINDS,
  vaultExtractionFromEnv,
  type VaultStagesConfig,
  vaultStagesFromEnv,
} from './config.js';
export { createChatExpander, parseExpansion } from './expansion.js';
export {
  createChatFactExtractor,
  type DocumentFactExtractor,
  MAX_EXTRACTION_CHARS,
  type ModelExtraction,
  proposedTriples,
} from './extraction.js';
export { failureReason, StageProviderError } from './http.js';
export { createProviderReranker, parseChatScores, parseRerank } from './rerank.js';
