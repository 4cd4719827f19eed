import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { unstorableJson } from './storable-json.js';

/** `levels` arrays, one inside the other (built in a loop: far deeper than recursion would go). */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

describe('unstorableJson', () => {
  test('a lone surrogate anywhere in a text is found; a pair (an emoji) is ordinary text', () => {
    for (const text of ['\ud800', 'a\udbff', '\udc00b', '\ude00\ud83d', 'x\ud83d\ud83d\ude00']) {
      assert.equal(unstorableJson({ text }).length, 1, JSON.stringify(text));
    }
    for (const text of ['', 'Ada', '\ud83d\ude00', 'a\u{10FFFF}b', '\ufffd']) {
      assert.deepEqual(unstorableJson({ text }), [], JSON.stringify(text));
    }
  });

  test('problems name their path; a bad property name is reported on the object holding it', () => {
    const found = unstorableJson({ a: [{ b: 'x\u0000' }], c: { '\udc00': 1 } });
    assert.deepEqual(
      found.map(({ path, at }) => ({ path, ...at('here') })),
      [
        {
          path: ['a', '0', 'b'],
          field: 'here',
          message: 'must not contain the NUL character (U+0000)',
          code: 'requests.nul_character',
        },
        {
          path: ['c'],
          field: 'here',
          message: 'a property name must not contain a lone UTF-16 surrogate (an unpaired \\uD800–\\uDFFF escape)',
          code: 'requests.name_lone_surrogate',
        },
      ],
    );
  });

  test('64 levels of objects and arrays are fine; the 65th is reported once, where it starts', () => {
    assert.deepEqual(unstorableJson(nested(64)), []);
    const problems = unstorableJson(nested(10_000));
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.path.length, 64);
    assert.deepEqual(problems[0]!.at('body'), {
      field: 'body',
      message: 'nests deeper than 64 levels of objects and arrays',
      code: 'requests.nests_too_deep',
      params: { levels: 64 },
    });
  });

  test('reports at most 20 problems', () => {
    assert.equal(unstorableJson(Array.from({ length: 100 }, () => '\ud800')).length, 20);
  });
});
