/**
 * A warm handler instance keeps its module's state between runs (docs/scripts.md, "Sandbox"); it is
 * reused only by runs acting with the same authority (principal and roles). Two scripts — or two
 * versions saved by different authors — may share a source: what one's module kept from a run
 * with its principal's roles (a file it read, a token) must never answer a run acting for another.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox, type SandboxRun } from '../../shared/scripts/index.js';
import { mainRun } from '../integration/scripts-sandbox-fixtures.js';

// The first request's value is kept in module state and answered to every later run of the instance.
const remembers = 'let kept;\nexport function handle(req) { if (kept === undefined) kept = req.secret; return kept }';
const run = (authority: string, secret: string): SandboxRun => mainRun(remembers, { entry: 'handle', args: [{ secret }], authority });

describe('warm instances and authority', () => {
  it('a run acting for another principal or with other roles never gets an instance another authority warmed', async () => {
    const sandbox = createSandbox({ maxConcurrent: 1, maxThreads: 1 });
    try {
      const admin = JSON.stringify(['script:report', ['admin']]);
      expect(await sandbox.run(run(admin, 'salary-91000'))).toMatchObject({ status: 'ok', result: 'salary-91000' });
      // Same authority: the warm instance (and its state) is the script's own to reuse.
      expect(await sandbox.run(run(admin, 'other'))).toMatchObject({ status: 'ok', result: 'salary-91000' });
      // Another script with the same source, and the same script re-saved by an author with other roles.
      expect(await sandbox.run(run(JSON.stringify(['script:copy', ['staff']]), 'mine'))).toMatchObject({ status: 'ok', result: 'mine' });
      expect(await sandbox.run(run(JSON.stringify(['script:report', ['staff']]), 'also-mine'))).toMatchObject({ status: 'ok', result: 'also-mine' });
    } finally {
      await sandbox.close();
    }
  });
});
