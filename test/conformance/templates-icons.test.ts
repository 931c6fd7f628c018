/**
 * resources/templates/list carries icons when `icons.enabled`: `icons.resources` is keyed by the
 * template's URI template (spec document 1: "name (or resource template URI)"), or by its name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startResourcesMcp, type ResourcesMcp } from '../integration/resources-mcp-fixtures.js';

const iconsYaml = (enabled: boolean) => `
icons:
  enabled: ${enabled}
  resources:
    "mcp://global/{+path}": { src: "https://icons.example/global.svg", mime_type: image/svg+xml }
    personal-resource: { src: "data:image/png;base64,iVBORw0KGgo=" }
`;

describe('icons in resources/templates/list', () => {
  let enabled: ResourcesMcp;
  let disabled: ResourcesMcp;
  beforeAll(async () => {
    [enabled, disabled] = await Promise.all([startResourcesMcp({ extraYaml: iconsYaml(true) }), startResourcesMcp({ extraYaml: iconsYaml(false) })]);
  });
  afterAll(async () => {
    await enabled?.stop();
    await disabled?.stop();
  });

  it('gives a template its icon by URI template, or by name', async () => {
    const client = await enabled.connect('bob');
    const { resourceTemplates } = await client.listResourceTemplates();
    const iconsOf = Object.fromEntries(resourceTemplates.map((t) => [t.name, t.icons]));
    expect(iconsOf).toEqual({
      'global-resource': [{ src: 'https://icons.example/global.svg', mimeType: 'image/svg+xml' }],
      'personal-resource': [{ src: 'data:image/png;base64,iVBORw0KGgo=' }],
      'managed-resource': undefined,
      'persona-resource': undefined,
    });
  });

  it('lists no icons while icons.enabled is false', async () => {
    const client = await disabled.connect('bob');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.length).toBeGreaterThan(0);
    expect(resourceTemplates.every((t) => t.icons === undefined)).toBe(true);
  });
});
