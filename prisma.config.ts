// Prisma CLI configuration. The app itself opens the database in lib/store/db.ts and applies the
// migrations on first use; this file only serves `prisma generate` and the offline migration tool.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'file:./data/buildcop.db' },
});
