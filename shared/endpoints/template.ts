/**
 * Path templates (spec document 3, "Endpoint binding": `path`): the part of a request path under
 * `/endpoints/{name}` is matched segment by segment against the binding's template. A `{x}`
 * segment takes exactly one non-empty segment, percent-decoded, read as `req.params.x`; any other
 * segment must equal the (decoded) request segment. One trailing slash is ignored. Pure.
 */

const PARAM = /^\{([^{}/]+)\}$/;

function segmentsOf(path: string): string[] {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed === '' ? [] : trimmed.slice(1).split('/');
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The template's values for `rest` (the raw path under the endpoint's name: '' or starting with
 * '/'), or undefined when it does not match.
 */
export function matchTemplate(template: string, rest: string): Record<string, string> | undefined {
  if (rest !== '' && !rest.startsWith('/')) return undefined;
  const want = segmentsOf(template);
  const have = segmentsOf(rest);
  if (want.length !== have.length) return undefined;
  const params = new Map<string, string>();
  for (let i = 0; i < want.length; i++) {
    const value = decoded(have[i]!);
    if (value === undefined) return undefined;
    const param = PARAM.exec(want[i]!);
    if (param) {
      if (value === '') return undefined;
      params.set(param[1]!, value);
    } else if (value !== want[i]) {
      return undefined;
    }
  }
  // Own properties even for names like __proto__.
  return Object.fromEntries(params);
}
