#!/usr/bin/env node
// stdio bin for the knowledge-graph MCP server (cairn-graph, a drop-in for the official memory
// server): the same as `cairn mcp graph`.
import { main } from '../dist/cli/main.js';

await main(['mcp', 'graph', ...process.argv.slice(2)]);
