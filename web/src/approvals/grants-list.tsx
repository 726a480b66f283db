// Standing grants on the approvals page: every active allow_always grant (tool, principal,
// expiry, who granted it) with a Revoke button. Revoking applies to the principal's next call
// in every process. The list reloads whenever the pending list does (a decision may add a
// grant), after a revocation here, and when the tab becomes visible.
import { useCallback, useEffect, useState } from 'react';

import type { Grant as ModelGrant } from '../../../src/broker/model.js';
import { api, errorText } from '../api.js';
import type { Wire } from '../wire.js';

/** A grant as the REST API sends it (times as ISO 8601). */
type Grant = Wire<ModelGrant>;

/** Reads `GET /api/approvals/grants` (active ones) whenever `version` changes. */
function useGrants(version: unknown) {
  const [grants, setGrants] = useState<Grant[]>();
  const [error, setError] = useState<string>();
  const refresh = useCallback(async () => {
    try {
      const reply = await api<{ grants: Grant[] }>('/api/approvals/grants?limit=500');
      setGrants(reply.grants);
      setError(undefined);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh, version]);
  useEffect(() => {
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refresh]);
  return { grants, error, refresh };
}

const when = (t: string | number): string => new Date(t).toLocaleString();

function GrantRow({ grant: g, onRevoke }: { grant: Grant; onRevoke(g: Grant): void }) {
  return (
    <tr data-grant-id={g.id}>
      <td>
        <code>{g.tool}</code>
      </td>
      <td className="who">{g.principal}</td>
      <td>{g.expiresAt === null ? 'until revoked' : `until ${when(g.expiresAt)}`}</td>
      <td>
        by {g.grantedBy},{' '}
        <time dateTime={new Date(g.createdAt).toISOString()}>{when(g.createdAt)}</time>
      </td>
      <td>
        <button
          type="button"
          className="deny"
          aria-label={`Revoke ${g.tool} for ${g.principal}`}
          onClick={() => onRevoke(g)}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

export function GrantsList({ version }: { version: unknown }) {
  const { grants, error, refresh } = useGrants(version);
  const [notice, setNotice] = useState<{ text: string; error: boolean }>();
  const revoke = async (g: Grant): Promise<void> => {
    try {
      await api(`/api/approvals/grants/${encodeURIComponent(g.id)}?by=dashboard`, {
        method: 'DELETE',
      });
      setNotice({ text: `Revoked: ${g.tool} for ${g.principal}`, error: false });
    } catch (err) {
      setNotice({ text: errorText(err), error: true });
    }
    await refresh();
  };
  return (
    <section className="grants" aria-labelledby="grants-heading">
      <h2 id="grants-heading">Standing grants</h2>
      {notice !== undefined && (
        <p
          className={notice.error ? 'notice error' : 'muted'}
          role={notice.error ? 'alert' : 'status'}
        >
          {notice.text}
        </p>
      )}
      {error !== undefined && (
        <p className="notice error" role="alert">
          Cannot load grants: {error}
        </p>
      )}
      {grants?.length === 0 && (
        <p className="empty">
          No standing grants. “Approve always” on a bound agent’s call lets that agent’s later calls
          to the tool run without asking; the grant shows here until it expires or you revoke it.
        </p>
      )}
      {grants !== undefined && grants.length > 0 && (
        <div className="table-wrap">
          <table className="grants-table" aria-label="Standing grants">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Principal</th>
                <th scope="col">Lasts</th>
                <th scope="col">Granted</th>
                <th scope="col">
                  <span className="visually-hidden">Revoke</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {grants.map((g) => (
                <GrantRow key={g.id} grant={g} onRevoke={(x) => void revoke(x)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
