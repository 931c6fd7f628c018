/**
 * The sidebar's Administration group: shown only when the api says the caller may use it
 * (access.ts). Scripts to whoever the scripts route admits; Knowledge where the api serves its review
 * to the caller; the other pages to administrators.
 */
import { NavLink } from 'react-router';
import { Cable, Code, KeyRound, Lightbulb, ScrollText, ServerCog, ShieldCheck, Users, Webhook } from 'lucide-react';
import { useAdminAccess, useKnowledgeAccess, useScriptsAccess } from './access';
import './nav.css';

const adminLinks = [
  { to: '/admin/webhooks', label: 'Webhooks', Icon: Webhook },
  { to: '/admin/bot-check', label: 'Bot check', Icon: ShieldCheck },
  { to: '/admin/secrets', label: 'Secrets', Icon: KeyRound },
  { to: '/admin/audit', label: 'Audit', Icon: ScrollText },
  { to: '/admin/personas', label: 'Personas', Icon: Users },
  { to: '/admin/connections', label: 'Connections', Icon: Cable },
  { to: '/admin/system', label: 'System', Icon: ServerCog },
];

export function AdminSections() {
  const admin = useAdminAccess();
  const scripts = useScriptsAccess();
  const knowledge = useKnowledgeAccess();
  const links = [
    ...(scripts.data ? [{ to: '/admin/scripts', label: 'Scripts', Icon: Code }] : []),
    ...(knowledge.data ? [{ to: '/admin/knowledge', label: 'Knowledge', Icon: Lightbulb }] : []),
    ...(admin.data ? adminLinks : []),
  ];
  if (links.length === 0) return null;
  return (
    <div className="sidebar-group" role="group" aria-labelledby="sidebar-admin-title">
      <p className="sidebar-group-title" id="sidebar-admin-title">
        Administration
      </p>
      <ul className="sections">
        {links.map(({ to, label, Icon }) => (
          <li key={to}>
            <NavLink to={to} className="section-link">
              <Icon aria-hidden size={16} /> {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
