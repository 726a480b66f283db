// Code metrics for analyze_code (and the complexity rules): the public surface of this folder.
export {
  type AnalyzeInput,
  type AnalyzeOptions,
  analyzeSource,
  analyzeTree,
  type CodeMetrics,
  type FileMetrics,
  type FunctionMetrics,
} from './analyze.js';
export { type ComplexityMetrics } from './complexity.js';
export { halsteadFromCounts, type HalsteadMetrics, maintainabilityIndex } from './halstead.js';
export { NODE_KINDS, type NodeKinds } from './node-kinds.js';
