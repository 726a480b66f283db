// The replica id and the session ids it prefixes: validation, parsing an id back to its
// replica, and the wrong-replica message (only for another replica's well-formed id).
import { describe, expect, it } from 'vitest';

import { InvalidInputError } from '../shared/index.js';
import { issuingReplica, replicaId, replicaSessionId, wrongReplica } from './replica.js';

describe('replica ids', () => {
  it('takes a configured id, else makes a random one per call', () => {
    expect(replicaId('eu-1_a')).toBe('eu-1_a');
    expect(replicaId()).toMatch(/^[0-9a-f]{8}$/);
    expect(replicaId('')).not.toBe(replicaId(''));
  });

  it('refuses an id a session id could not carry', () => {
    for (const bad of ['a.b', 'x y', 'é', 'a'.repeat(33)]) {
      expect(() => replicaId(bad)).toThrow(InvalidInputError);
    }
    expect(() => replicaId('a.b')).toThrow(/^CAIRN_REPLICA_ID: "a\.b" must be 1-32 letters/);
  });

  it('issues <replica>.<uuid> session ids and reads the replica back', () => {
    const id = replicaSessionId('r1');
    expect(id).toMatch(/^r1\.[0-9a-f-]{36}$/);
    expect(issuingReplica(id)).toBe('r1');
    expect(issuingReplica('0a9c7e40-0000-4000-8000-000000000000')).toBeUndefined();
    expect(issuingReplica('.abc')).toBeUndefined();
    expect(issuingReplica('bad id.abc')).toBeUndefined();
  });

  it('names the owner only for another replica', () => {
    const id = replicaSessionId('r2');
    expect(wrongReplica(id, 'r2')).toBeUndefined();
    expect(wrongReplica('no-dot-here', 'r0')).toBeUndefined();
    const message = wrongReplica(id, 'r0');
    expect(message).toMatch(
      new RegExp(`^session ${id} lives on replica r2, not on this one \\(r0\\)`),
    );
    expect(message).toContain('the load balancer must be sticky');
    expect(message).toContain('if replica r2 has stopped, initialize a new session');
  });
});
