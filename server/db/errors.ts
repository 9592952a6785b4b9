/**
 * The code a store's driver puts on the errors it throws: PostgreSQL's SQLSTATE ('23505', '40P01') from
 * pg, SQLite's result code name ('SQLITE_CONSTRAINT_UNIQUE') from better-sqlite3.
 */
export const storeErrorCode = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};
