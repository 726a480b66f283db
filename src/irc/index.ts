// The IRC façade: a gateway that lets IRC clients (people, IRC-native agents) join backplane
// channels as registered agents. Imports domains through the core; nothing imports it but the CLI.
export { createIrcGateway, type IrcGateway, type IrcGatewayOptions } from './gateway.js';
export { DEFAULT_FLOOD, type FloodLimits } from './flood.js';
