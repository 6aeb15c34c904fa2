// The statement counter of tests/helpers/statement-count.ts: what the "one query per table" tests rest on.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countStatements } from '../../helpers/statement-count.ts';

let client: Database.Database;
beforeEach(() => {
  client = new Database(':memory:');
  client.exec('create table t (id integer primary key, v text); insert into t (v) values (1), (2), (3)');
});
afterEach(() => client.close());

const byId = () => client.prepare('select v from t where id = ?');

describe('countStatements', () => {
  it('counts each run of a statement, prepared once or per call, and gives back what the work returned', async () => {
    const prepared = byId();
    const counted = await countStatements(client, () => [1, 2, 3].map((id) => prepared.get(id)));
    expect(counted.result).toEqual([{ v: '1' }, { v: '2' }, { v: '3' }]);
    expect(counted.statements).toBe(3);
    expect((await countStatements(client, () => client.prepare('select * from t').all())).statements).toBe(1);
    expect((await countStatements(client, async () => client.prepare('update t set v = ?').run('x'))).statements).toBe(1);
  });

  it('stops counting once the work ends, also when it throws', async () => {
    const originalGet = Object.getPrototypeOf(byId()).get;
    await expect(
      countStatements(client, () => {
        byId().get(1);
        throw new Error('half way');
      }),
    ).rejects.toThrow('half way');
    expect(Object.getPrototypeOf(byId()).get).toBe(originalGet);
    expect((await countStatements(client, () => 'nothing run')).statements).toBe(0);
  });
});
