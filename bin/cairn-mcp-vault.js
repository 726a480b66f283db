#!/usr/bin/env node
// stdio bin for the document-memory MCP server (cairn-vault): the same as `cairn mcp vault`.
import { main } from '../dist/cli/main.js';

await main(['mcp', 'vault', ...process.argv.slice(2)]);
