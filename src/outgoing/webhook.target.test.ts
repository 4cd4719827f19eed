import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { savedTargetProblem, targetProblem } from './webhook.target.js';

describe('webhook target', () => {
  test('names the rule a URL breaks, by its code, on the field url', () => {
    const cases: [string, string, string][] = [
      ['not a url', 'webhooks_out.absolute_https_url', 'must be an absolute https URL'],
      ['https://user:secret@hooks.example.com/x', 'webhooks_out.credentials_in_url', 'must not contain credentials'],
      ['http://hooks.example.com/x', 'webhooks_out.https_required', 'must be an https URL'],
      ['https://10.1.2.3/x', 'webhooks_out.private_target', 'must not point to a loopback or private address'],
    ];
    for (const [url, code, message] of cases) {
      assert.deepEqual(targetProblem(url, false), { field: 'url', message, code }, url);
    }
    assert.equal(targetProblem('https://hooks.example.com/x', false), null);
    assert.equal(
      targetProblem('http://127.0.0.1:8080/x', true),
      null,
      'a loopback receiver when private targets are allowed',
    );
  });

  test('when saving, a loopback host name is a private target too', async () => {
    assert.deepEqual(await savedTargetProblem('https://localhost:8443/x', false), {
      field: 'url',
      message: 'must not point to a loopback or private address',
      code: 'webhooks_out.private_target',
    });
  });
});
