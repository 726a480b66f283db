// Human (dashboard) login: one-time codes, sessions, CSRF tokens.
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
