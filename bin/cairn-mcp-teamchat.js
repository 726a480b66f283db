#!/usr/bin/env node
// stdio bin for the teamchat MCP server: the same as `cairn mcp teamchat`.
import { main } from '../dist/cli/main.js';

await main(['mcp', 'teamchat', ...process.argv.slice(2)]);
