// Minimal types for the parts of the npm `irc-framework` client the IRC tests use (the package
// ships none).
declare module 'irc-framework' {
  import { EventEmitter } from 'node:events';

  export interface ClientOptions {
    host: string;
    port: number;
    nick: string;
    username?: string;
    gecos?: string;
    password?: string;
    account?: { account: string; password: string };
    sasl_disconnect_on_fail?: boolean;
    auto_reconnect?: boolean;
    ping_interval?: number;
    ping_timeout?: number;
    tls?: boolean;
    rejectUnauthorized?: boolean;
    enable_echomessage?: boolean;
  }

  export interface MessageEvent {
    type: 'privmsg' | 'notice' | 'action';
    nick: string;
    target: string;
    message: string;
    tags: Record<string, string>;
    time?: number;
  }

  export interface RawEvent {
    line: string;
    from_server: boolean;
  }

  export class Client extends EventEmitter {
    constructor(options?: Partial<ClientOptions>);
    user: { nick: string };
    connected: boolean;
    connect(options?: Partial<ClientOptions>): void;
    join(channel: string, key?: string): void;
    part(channel: string, message?: string): void;
    say(target: string, message: string): void;
    notice(target: string, message: string): void;
    setTopic(channel: string, topic: string): void;
    raw(...args: string[]): void;
    quit(message?: string): void;
  }
}
