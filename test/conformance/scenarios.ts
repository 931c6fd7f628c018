/**
 * The server scenarios of `@modelcontextprotocol/conformance` 0.1.16 (`conformance list --server`),
 * split by whether they apply to the platform. Most scenarios call fixed names that only the
 * suite's reference server (`examples/servers/typescript/everything-server.ts`) registers: the
 * `test_*` tools and prompts and the `test://` resources. The platform never ships those, so
 * their scenarios are skipped with what they need; the rest must pass against any server.
 */

/** Scenarios that exercise the transport, lifecycle and list shapes: every check must pass. */
export const applicableScenarios = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
] as const;

/**
 * Scenarios that need the reference server's fixtures, with the fixture each one calls. Run here,
 * each fails at its first call (an unknown tool is a JSON-RPC error -32602).
 */
export const fixtureScenarios: Readonly<Record<string, string>> = {
  'completion-complete': 'prompt test_prompt_with_arguments (completion of argument arg1)',
  'tools-call-simple-text': 'tool test_simple_text',
  'tools-call-image': 'tool test_image_content',
  'tools-call-audio': 'tool test_audio_content',
  'tools-call-embedded-resource': 'tool test_embedded_resource',
  'tools-call-mixed-content': 'tool test_multiple_content_types',
  'tools-call-with-logging': 'tool test_tool_with_logging',
  'tools-call-error': 'tool test_error_handling',
  'tools-call-with-progress': 'tool test_tool_with_progress',
  'tools-call-sampling': 'tool test_sampling',
  'tools-call-elicitation': 'tool test_elicitation',
  'json-schema-2020-12': 'tool json_schema_2020_12_tool (pending in 0.1.16)',
  'elicitation-sep1034-defaults': 'tool test_elicitation_sep1034_defaults',
  'server-sse-polling': 'tool test_reconnection (pending in 0.1.16)',
  'elicitation-sep1330-enums': 'tool test_elicitation_sep1330_enums',
  'resources-read-text': 'resource test://static-text',
  'resources-read-binary': 'resource test://static-binary',
  'resources-templates-read': 'resource template test://template/{id}/data',
  'resources-subscribe': 'resource test://watched-resource',
  'resources-unsubscribe': 'resource test://watched-resource',
  'prompts-get-simple': 'prompt test_simple_prompt',
  'prompts-get-with-args': 'prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'prompt test_prompt_with_image',
};
