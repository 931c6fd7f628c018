/**
 * Every activity that can run longer than a few seconds has a heartbeat timeout: the worker beats
 * for every activity (activities/heartbeat.ts), so a try on a stalled or lost worker is retried
 * after the heartbeat timeout, not after its whole start-to-close timeout (an index sweep hung for
 * 600 s that way, and the Schedule skipped the next two). This walks every `proxyActivities`
 * options object in workflows/ and requires `heartbeatTimeout` unless `startToCloseTimeout` is a
 * literal of at most 30 s, and a literal heartbeat timeout of at least three beats.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { HEARTBEAT_EVERY_MS } from '../../activities/heartbeat.js';

const workflowsDir = join(import.meta.dirname, '../../workflows');
const shortMs = 30_000;
const units: Record<string, number> = { second: 1_000, minute: 60_000, hour: 3_600_000 };

/** A literal duration in ms ('5 minutes', 60_000), or undefined when it is computed. */
function literalMs(node: ts.Expression | undefined): number | undefined {
  if (!node) return undefined;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (!ts.isStringLiteral(node)) return undefined;
  const match = /^(\d+) (second|minute|hour)s?$/.exec(node.text);
  if (!match) throw new Error(`a duration this test does not read: '${node.text}'`);
  return Number(match[1]) * units[match[2]!]!;
}

interface ProxyOptions {
  where: string;
  startToClose: ts.Expression | undefined;
  heartbeat: ts.Expression | undefined;
}

function proxyOptions(file: string): ProxyOptions[] {
  const source = ts.createSourceFile(file, readFileSync(join(workflowsDir, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: ProxyOptions[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'proxyActivities') {
      const options = node.arguments[0];
      const where = `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (!options || !ts.isObjectLiteralExpression(options)) throw new Error(`${where}: proxyActivities options must be an object literal`);
      const property = (name: string) => {
        const p = options.properties.find((q) => q.name && ts.isIdentifier(q.name) && q.name.text === name);
        if (!p) return undefined;
        // A shorthand (`{ startToCloseTimeout }`) is computed: its name stands for the value.
        return ts.isPropertyAssignment(p) ? p.initializer : (p.name as ts.Identifier);
      };
      found.push({ where, startToClose: property('startToCloseTimeout'), heartbeat: property('heartbeatTimeout') });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const all = readdirSync(workflowsDir)
  .filter((f) => f.endsWith('.ts'))
  .flatMap(proxyOptions);

describe('activity heartbeat timeouts', () => {
  it('finds the proxies of every workflow family', () => {
    expect(new Set(all.map((p) => p.where.split(':')[0]))).toEqual(
      new Set(['archives.ts', 'folders.ts', 'housekeeping.ts', 'scripts.ts', 'search.ts', 'tables.ts', 'thumbnails.ts', 'webhooks.ts']),
    );
  });

  it('every activity that may run past 30 s has a heartbeat timeout of at least three beats', () => {
    const missing = all.filter((p) => {
      const startToClose = literalMs(p.startToClose);
      return (startToClose === undefined || startToClose > shortMs) && p.heartbeat === undefined;
    });
    expect(missing.map((p) => p.where)).toEqual([]);
    const tooShort = all.filter((p) => {
      const heartbeat = literalMs(p.heartbeat);
      return heartbeat !== undefined && heartbeat < 3 * HEARTBEAT_EVERY_MS;
    });
    expect(tooShort.map((p) => p.where)).toEqual([]);
  });
});
