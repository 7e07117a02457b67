import { OffsetCommitter } from './offset-committer';

describe('OffsetCommitter', () => {
  let now = 0;
  const commits: string[] = [];
  const errors: unknown[] = [];
  const committer = () =>
    new OffsetCommitter(
      1_000,
      (error) => errors.push(error),
      () => now,
    );
  const commitOf = (label: string) => async () => {
    commits.push(label);
  };

  beforeEach(() => {
    jest.useFakeTimers();
    now = 10_000;
    commits.length = 0;
    errors.length = 0;
  });
  afterEach(() => jest.useRealTimers());

  it('commits the first batch at once, and the batches of the next second once, at its end', async () => {
    const c = committer();
    await c.resolved(commitOf('first'));
    expect(commits).toEqual(['first']);
    for (const [at, label] of [
      [10_100, 'second'],
      [10_400, 'third'],
      [10_900, 'fourth'],
    ] as const) {
      now = at;
      await c.resolved(commitOf(label));
    }
    expect(commits).toEqual(['first']);
    now = 11_000;
    await jest.advanceTimersByTimeAsync(900);
    // The latest batch's commit carries every offset resolved so far.
    expect(commits).toEqual(['first', 'fourth']);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(commits).toEqual(['first', 'fourth']);
  });

  it('commits at once again after a quiet second', async () => {
    const c = committer();
    await c.resolved(commitOf('a'));
    now = 12_500;
    await c.resolved(commitOf('b'));
    expect(commits).toEqual(['a', 'b']);
  });

  it('flush commits what is pending now, and nothing when nothing is', async () => {
    const c = committer();
    await c.resolved(commitOf('a'));
    now = 10_200;
    await c.resolved(commitOf('b'));
    await c.flush();
    expect(commits).toEqual(['a', 'b']);
    await c.flush();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(commits).toEqual(['a', 'b']);
  });

  it('keeps a failed commit pending and tries it again after the interval', async () => {
    const c = committer();
    let fail = true;
    const flaky = async () => {
      if (fail) throw new Error('coordinator moved');
      commits.push('retried');
    };
    await c.resolved(flaky);
    expect(errors).toHaveLength(1);
    expect(commits).toEqual([]);
    fail = false;
    now = 11_000;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(commits).toEqual(['retried']);
  });

  it('commits what is pending at close, and nothing after it', async () => {
    const c = committer();
    await c.resolved(commitOf('a'));
    now = 10_300;
    await c.resolved(commitOf('b'));
    await c.close();
    expect(commits).toEqual(['a', 'b']);
    now = 20_000;
    await c.resolved(commitOf('late'));
    await jest.advanceTimersByTimeAsync(5_000);
    expect(commits).toEqual(['a', 'b']);
  });
});
