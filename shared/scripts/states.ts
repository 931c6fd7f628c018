/**
 * Script states and the transitions between them (pure). The spec names the states and leaves the
 * transitions to us; these are ours (docs/scripts.md, "States"):
 *
 * | action      | from                              | to          | notes                                                  |
 * |-------------|-----------------------------------|-------------|--------------------------------------------------------|
 * | disable     | active, deprecated                | disabled    | stops every run; a deprecated script loses the mark     |
 * | enable      | disabled, deprecated, superseded  | active      | undoes any of them (clears superseded_by)               |
 * | deprecate   | active, disabled                  | deprecated  | no longer runs; as a library still imported (a notice)  |
 * | supersede   | any                               | superseded  | by an active script of the same kind, not itself        |
 *
 * Asking for the state a script is already in changes nothing (no version, no audit row), so a
 * repeated request is harmless; any other transition not in the table is a state conflict (409).
 * Only active scripts run (spec document 3: a disabled, deprecated or superseded script's endpoint
 * answers 503; issue 16: none of them runs on schedule). Libraries: an active or deprecated one is
 * imported (deprecation tells importers to move on without breaking them); a disabled or
 * superseded one is not, and the refusal names the replacement.
 */
import { ScriptError, type ScriptKind, type ScriptState } from './types.js';

export const STATE_ACTIONS = ['disable', 'enable', 'deprecate', 'supersede'] as const;
export type StateAction = (typeof STATE_ACTIONS)[number];

const targetOf: Record<StateAction, ScriptState> = {
  disable: 'disabled',
  enable: 'active',
  deprecate: 'deprecated',
  supersede: 'superseded',
};

const allowedFrom: Record<StateAction, readonly ScriptState[]> = {
  disable: ['active', 'deprecated'],
  enable: ['disabled', 'deprecated', 'superseded'],
  deprecate: ['active', 'disabled'],
  supersede: ['active', 'disabled', 'deprecated', 'superseded'],
};

/** A script in this state runs (on schedule, as an endpoint). */
export function runs(state: ScriptState): boolean {
  return state === 'active';
}

/** A library in this state may be imported. */
export function importable(state: ScriptState): boolean {
  return state === 'active' || state === 'deprecated';
}

export interface Transition {
  to: ScriptState;
  /** False when the script is already there (and, for supersede, by the same replacement). */
  changes: boolean;
}

/** The replacement a supersede names, as the store read it. */
export interface Replacement {
  id: string;
  name: string;
  kind: ScriptKind;
  state: ScriptState;
}

/**
 * The state after `action` on a script in `from` (with `supersededBy` its current replacement),
 * or a refusal: `state` (409) for a transition not in the table or an unfit replacement.
 */
export function transition(
  script: { id: string; name: string; kind: ScriptKind; state: ScriptState; supersededBy?: string },
  action: StateAction,
  replacement?: Replacement,
): Transition {
  const to = targetOf[action];
  if (action === 'supersede') {
    if (!replacement) throw new ScriptError('invalid', 'supersede needs the script that replaces this one (superseded_by)');
    if (replacement.id === script.id) throw new ScriptError('state', `"${script.name}" cannot supersede itself`);
    if (replacement.state !== 'active') {
      throw new ScriptError('state', `"${replacement.name}" is ${replacement.state}: only an active script can supersede another`, { replacement_state: replacement.state });
    }
    if (replacement.kind !== script.kind) {
      throw new ScriptError('state', `"${replacement.name}" is a ${replacement.kind} and "${script.name}" a ${script.kind}: a script is superseded by one of the same kind`);
    }
    return { to, changes: !(script.state === 'superseded' && script.supersededBy === replacement.id) };
  }
  if (script.state === to) return { to, changes: false };
  if (!allowedFrom[action].includes(script.state)) {
    throw new ScriptError('state', `cannot ${action} "${script.name}": it is ${script.state}${action === 'deprecate' ? ' (enable it first)' : ''}`, { state: script.state });
  }
  return { to, changes: true };
}
