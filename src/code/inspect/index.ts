// validate_code and analyze_code over a path (a file, or a directory walked with the
// repository walker): the public surface of this folder.
export { analyzePath } from './analyze-path.js';
export { analyzeCodeInput, listRulesInput, validateCodeInput } from './schemas.js';
export {
  type AnalyzeReport,
  DEFAULT_INSPECT_LIMITS,
  type DirectoryAnalysis,
  type FailedFile,
  type FileAnalysis,
  type FileCounts,
  type FileSummary,
  type FindingCounts,
  type Hotspot,
  type InspectSkip,
  type InspectLimits,
  type InspectTarget,
  type TruncatedBy,
  type Truncation,
  type ValidateReport,
} from './types.js';
export { validatePath, type ValidatePathOptions } from './validate-path.js';
