import { sqliteDriverModule } from './sqlite-driver.js';

describe('sqliteDriverModule', () => {
  it('leaves TypeORM its default better-sqlite3 (13.x) from Node 22 on', () => {
    expect(sqliteDriverModule(22)).toBeUndefined();
    expect(sqliteDriverModule(24)).toBeUndefined();
    expect(sqliteDriverModule(26)).toBeUndefined();
  });

  it('hands over the 12.x line on Node 20, where 13.x cannot load', () => {
    const legacy = sqliteDriverModule(20) as {
      prototype: { prepare: unknown };
    };
    expect(typeof legacy).toBe('function');
    expect(typeof legacy.prototype.prepare).toBe('function');
  });
});
