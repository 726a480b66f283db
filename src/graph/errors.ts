// The graph's refusals. The message is the official memory server's, word for word.
import { NotFoundError } from '../shared/index.js';

/** add_observations named an entity the graph does not hold. */
export class EntityNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`Entity with name ${name} not found`);
  }
}
