// The `cairn` command line.
export { main } from './main.js';
