import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { groupCommit } from './group-commit.js';

/** A writer that records its batches and fails any batch holding a negative number, as a transaction would. */
function recordingWriter() {
  const batches: number[][] = [];
  const write = groupCommit((items: number[]) => {
    batches.push(items);
    if (items.some((item) => item < 0)) return Promise.reject(new Error(`cannot write ${items.join(',')}`));
    return Promise.resolve(items.map((item) => item * 10));
  });
  return { batches, write };
}

describe('groupCommit', () => {
  test('submissions made together are written in one batch, each answered with its own result', async () => {
    const { batches, write } = recordingWriter();
    assert.deepEqual(await Promise.all([1, 2, 3].map(write)), [10, 20, 30]);
    assert.deepEqual(batches, [[1, 2, 3]]);
  });

  test('a failing batch is written again one by one: only the bad submission fails', async () => {
    const { batches, write } = recordingWriter();
    const outcomes = await Promise.allSettled([1, -2, 3].map(write));
    assert.deepEqual(
      outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : String(outcome.reason))),
      [10, 'Error: cannot write -2', 30],
    );
    assert.deepEqual(batches, [[1, -2, 3], [1], [-2], [3]]);
  });

  test('a failing submission alone fails once, and the next submissions are written as usual', async () => {
    const { batches, write } = recordingWriter();
    await assert.rejects(write(-1), /cannot write -1/);
    assert.equal(await write(4), 40);
    assert.deepEqual(batches, [[-1], [4]]);
  });
});
