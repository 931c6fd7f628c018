import type { ToolDefinition } from './tool.js';

/** Every tool the process offers; each MCP session sees a filtered view of it. */
export class ToolRegistry {
  readonly #tools = new Map<string, ToolDefinition>();

  register(...defs: ToolDefinition[]): this {
    for (const def of defs) {
      if (this.#tools.has(def.name)) throw new Error(`tool ${def.name} is registered twice`);
      this.#tools.set(def.name, def);
    }
    return this;
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name);
  }

  all(): ToolDefinition[] {
    return [...this.#tools.values()];
  }

  /** The toolkit families present, without the platform's own tools. */
  toolkits(): string[] {
    return [...new Set(this.all().map((t) => t.toolkit))].filter((t) => t !== 'platform').sort();
  }
}
