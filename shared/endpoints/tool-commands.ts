/**
 * The endpoint commands of the `manage_script` tool (spec document 3, "Scripted endpoints": tool
 * commands; docs/endpoints.md, "Binding"): endpoint_set, endpoint_list, endpoint_enable,
 * endpoint_disable, and endpoint_remove (ours: unbinding, so a bound script can be deleted). shared/scripts/tool.ts declares their fields and dispatches to these, handed in
 * by the composition root (cli/services.ts), so the scripts domain needs no runtime import of this one.
 * A script is named by `name` (the spec's field) or `script` (as the tool's other actions), with
 * `owner_email` optionally naming its owner too.
 */
import { ScriptError, type ScriptActor } from '../scripts/index.js';
import type { BindingInput } from './rules.js';
import type { EndpointStore, ScriptNaming } from './store.js';

export const ENDPOINT_COMMANDS = ['endpoint_set', 'endpoint_list', 'endpoint_enable', 'endpoint_disable', 'endpoint_remove'] as const;
export type EndpointCommand = (typeof ENDPOINT_COMMANDS)[number];

export interface EndpointCommandArgs extends BindingInput {
  action: EndpointCommand;
  /** The script's name (or id). */
  name?: string;
  /** The same, as the tool's other actions name it; with `name`, both must agree. */
  script?: string;
  owner_email?: string;
}

/** What the tool hands a command to, and the JSON it answers. */
export interface EndpointCommands {
  run(actor: ScriptActor, args: EndpointCommandArgs): Promise<Record<string, unknown>>;
}

function scriptOf(args: EndpointCommandArgs): string | undefined {
  const { name, script } = args;
  if (name !== undefined && script !== undefined && name !== script) throw new ScriptError('invalid', `name "${name}" and script "${script}" name different scripts: give one`);
  const ref = name ?? script;
  // Alone, owner_email only narrows endpoint_list; any other command needs the script's name with it.
  if (ref === undefined && args.owner_email !== undefined && args.action !== 'endpoint_list') throw new ScriptError('invalid', 'owner_email names a script together with name');
  return ref === '' ? undefined : ref;
}

function required(ref: string | undefined, action: EndpointCommand): string {
  if (ref === undefined) throw new ScriptError('invalid', `${action} needs name (the script's name)`);
  return ref;
}

export function endpointCommands(store: EndpointStore): EndpointCommands {
  return {
    async run(actor, args) {
      const ref = scriptOf(args);
      const naming: ScriptNaming = args.owner_email !== undefined ? { ownerEmail: args.owner_email } : {};
      switch (args.action) {
        case 'endpoint_set':
          return { binding: await store.set(actor, required(ref, args.action), args, naming) };
        case 'endpoint_list':
          return ref === undefined ? { bindings: await store.list(actor, naming.ownerEmail) } : { ...(await store.get(actor, ref, naming)) };
        case 'endpoint_enable':
          return { binding: await store.enable(actor, required(ref, args.action), naming) };
        case 'endpoint_disable':
          return { binding: await store.disable(actor, required(ref, args.action), naming) };
        case 'endpoint_remove':
          return { removed: await store.remove(actor, required(ref, args.action), naming) };
      }
    },
  };
}
