import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { passwordProblem } from './password-rule.js';

describe('password rule', () => {
  test('refuses fewer than 12 characters', () => {
    for (const password of ['', '12345678', 'short', 'elevenchars']) {
      assert.deepEqual(
        passwordProblem(password),
        {
          field: 'password',
          message: 'must be at least 12 characters',
          code: 'workspaces.password_too_short',
          params: { min: 12 },
        },
        password,
      );
    }
  });

  test('refuses common passwords, repetitions and keyboard or counting runs, whatever their case', () => {
    for (const password of [
      'password1234',
      'Password1234!',
      'p@ssw0rd2024',
      'Summer2025!!',
      'qwerty123456',
      '123456qwerty',
      'iloveyou1234',
      'administrator',
      '1q2w3e4r5t6y',
      '1qaz2wsx3edc',
      '123456789012',
      '098765432109',
      'abcdefghijklm',
      'QWERTYUIOPAS',
      'aaaaaaaaaaaa',
      '121212121212',
      'passwordpassword',
      'abcabcabcabc',
    ]) {
      const problem = passwordProblem(password, 'new_password');
      assert.deepEqual(
        [problem?.field, problem?.code, problem?.params],
        ['new_password', 'workspaces.password_too_common', undefined],
        password,
      );
      assert.match(problem?.message ?? '', /too common or predictable/, password);
    }
  });

  test('accepts a passphrase of unrelated words or a long random string', () => {
    for (const password of ['correct horse battery', 'a long enough secret', 'tR7#kq2!Lm9v', 'my password is long']) {
      assert.equal(passwordProblem(password), null, password);
    }
  });
});
