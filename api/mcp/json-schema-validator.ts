import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

export interface SharedJsonSchemaValidatorOptions {
  /** Distinct schemas kept compiled; past that the validator starts over. Default 256. */
  maxSchemas?: number;
  /** Builds the validator that compiles (Ajv, as the SDK would). */
  create?: () => jsonSchemaValidator;
}

/**
 * The JSON-schema validator of every MCP session (the SDK Server checks elicitation answers with
 * it). Left to itself the SDK builds a fresh Ajv instance, formats and all, for every Server, that
 * is for every session; one per process instead. Ajv keeps each schema object it ever compiled, and
 * a per-session instance used to take them along when the session ended: here validators are kept
 * by the schema's JSON text, so a schema rebuilt for every call compiles once, and past
 * `maxSchemas` distinct schemas the underlying instance is replaced, so memory stays bounded.
 */
export class SharedJsonSchemaValidator implements jsonSchemaValidator {
  private readonly maxSchemas: number;
  private readonly create: () => jsonSchemaValidator;
  private inner: jsonSchemaValidator;
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  constructor(opts: SharedJsonSchemaValidatorOptions = {}) {
    this.maxSchemas = opts.maxSchemas ?? 256;
    this.create = opts.create ?? (() => new AjvJsonSchemaValidator());
    this.inner = this.create();
  }

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const text = JSON.stringify(schema);
    let validator = this.compiled.get(text);
    if (!validator) {
      if (this.compiled.size >= this.maxSchemas) {
        this.inner = this.create();
        this.compiled.clear();
      }
      validator = this.inner.getValidator(schema);
      this.compiled.set(text, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }
}

/** The one every session's server is given (buildMcpServer). */
export const sessionJsonSchemaValidator = new SharedJsonSchemaValidator();
