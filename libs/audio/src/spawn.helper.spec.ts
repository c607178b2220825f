import { SpawnHelper } from './spawn.helper';

const node = process.execPath;

describe('SpawnHelper', () => {
  const helper = new SpawnHelper();
  afterAll(() => helper.close());

  it("reports a child's exit code and the end of its stderr", async () => {
    const child = helper.spawn(node, ['-e', 'console.error("why it failed"); process.exit(3)']);
    await expect(child.exited).resolves.toMatchObject({
      code: 3,
      signal: null,
      stderr: 'why it failed\n',
    });
  });

  it('kills a child on request', async () => {
    const child = helper.spawn(node, ['-e', 'setTimeout(() => {}, 60_000)']);
    child.kill();
    await expect(child.exited).resolves.toMatchObject({ code: null, signal: 'SIGKILL' });
  });

  it('a child that cannot start is reported, not thrown', async () => {
    const exit = await helper.spawn('/nonexistent/binary', []).exited;
    expect(exit.error).toMatch(/ENOENT/);
  });

  it('a helper that was closed is started again; what it ran is reported gone', async () => {
    const running = helper.spawn(node, ['-e', 'setTimeout(() => {}, 60_000)']);
    const pid = await running.pid;
    await helper.close(); // resolves once the helper has exited: it killed its child first
    expect(pid).toEqual(expect.any(Number));
    await expect(running.exited).resolves.toMatchObject({ error: expect.stringMatching(/helper/) });
    await expect(helper.spawn(node, ['-e', 'process.exit(0)']).exited).resolves.toMatchObject({
      code: 0,
    });
  });
});
