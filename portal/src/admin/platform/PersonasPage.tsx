/**
 * Personas (docs/admin.md, "GET /personas"): each definition with its defaults applied, the tools
 * its members may call among those the platform serves, and who its members are (roles, mapped
 * users, API keys). Read-only: personas are configuration (platform.yaml).
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { AdminPage, Badge, Facts, QueryState, Section } from '../common';

export function PersonasPage() {
  const personas = useQuery({ queryKey: ['admin-personas'], queryFn: async () => unwrap(await api.GET('/api/v1/admin/personas')) });
  const data = personas.data;
  return (
    <AdminPage title="Personas" description="Who may call which tools: the personas of platform.yaml with every default applied, and their members.">
      <QueryState query={personas} what="the personas" />
      {data ? (
        <Facts
          items={[
            ['Administrators', <code className="admin-inline-code">{data.admin_persona}</code>],
            ['Default persona', data.default_defined ? data.default_persona : `${data.default_persona} (not defined: callers matching no persona are refused)`],
            ['Role mappings', Object.entries(data.role_mapping.oidc_to_persona).map(([r, p]) => `${r} → ${p}`).join(', ') || 'none'],
            ['User mappings', Object.entries(data.role_mapping.user_personas).map(([u, p]) => `${u} → ${p}`).join(', ') || 'none'],
          ]}
        />
      ) : null}
      {data?.personas.map((p) => (
        <Section key={p.name} id={`persona-${p.name}`} title={p.display_name ? `${p.display_name} (${p.name})` : p.name}>
          <p className="admin-note">
            {p.administrators ? <Badge tone="info">platform administrators</Badge> : null} {p.is_default ? <Badge tone="info">default</Badge> : null} priority {p.priority}
            {p.description ? ` · ${p.description}` : ''}
          </p>
          <div className="admin-grid">
            <div className="admin-card">
              <h3>Members</h3>
              <Facts
                items={[
                  ['Roles', p.members.roles.map((r) => (r.via === 'role_mapping' ? `${r.role} (role mapping)` : r.role)).join(', ') || 'none'],
                  ['Users', p.members.users.join(', ') || 'none'],
                  ['API keys', p.members.api_keys.map((k) => `${k.name}${k.active ? '' : ' (another persona is active)'}`).join(', ') || 'none'],
                ]}
              />
            </div>
            <div className="admin-card">
              <h3>Tools</h3>
              <Facts
                items={[
                  ['Allow', p.tools.allow.join(', ') || 'nothing'],
                  ['Deny', p.tools.deny.join(', ') || 'nothing'],
                  ['May call', `${p.tools.effective.length} tools`],
                ]}
              />
              <details className="params-details">
                <summary>The tools its members may call</summary>
                <p className="params">{p.tools.effective.join(', ') || 'none'}</p>
              </details>
            </div>
          </div>
          {p.prompts.system_prefix || p.prompts.system_suffix || p.prompts.instructions || Object.keys(p.hints).length ? (
            <details className="params-details">
              <summary>Prompts and hints</summary>
              <pre className="params">{JSON.stringify({ prompts: p.prompts, hints: p.hints }, null, 2)}</pre>
            </details>
          ) : null}
        </Section>
      ))}
    </AdminPage>
  );
}
