// The vault server (`cairn-vault`): its factory and its tool table.
export { createVaultServer, VAULT_SERVER_NAME, vaultTools } from './server.js';
