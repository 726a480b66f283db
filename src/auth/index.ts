// Authentication domain: human (dashboard) login with one-time codes, sessions and CSRF tokens;
// and the context server's agent tokens (HS256 JWTs signed with a key derived from the secret).
export {
  agentNameProblem,
  CONTEXT_TOKEN_AUDIENCE,
  CONTEXT_TOKEN_ISSUER,
  ContextTokenError,
  contextTokenKey,
  DEFAULT_TOKEN_TTL_SECONDS,
  looksLikeJwt,
  MAX_TOKEN_TTL_SECONDS,
  mintContextToken,
  type MintOptions,
  parseTtl,
  type VerifiedToken,
  verifyContextToken,
} from './context-token.js';
export {
  createHumanAuth,
  csrfMatches,
  csrfTokenFor,
  type HumanAuth,
  type HumanAuthOptions,
  type HumanSession,
  LOGIN_CODE_TTL_MS,
  type LoginCode,
  SESSION_TTL_MS,
} from './human-auth.js';
