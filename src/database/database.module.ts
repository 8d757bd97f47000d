import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { activeTracing } from '../tracing/tracing';
import { buildDataSourceOptions, migrateDatabase } from './data-source';

/** The service's pool on DATABASE_URL; the schema is brought up to date first, unless MIGRATIONS_RUN=false. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => {
        const databaseUrl = config.get('DATABASE_URL');
        if (config.get('MIGRATIONS_RUN')) {
          const applied = await migrateDatabase(config.get('DATABASE_MIGRATION_URL') || databaseUrl);
          if (applied.length > 0) new Logger('Database').log(`Applied migrations: ${applied.join(', ')}`);
        }
        return {
          ...buildDataSourceOptions(databaseUrl, {
            connectMs: config.get('DATABASE_CONNECT_TIMEOUT_MS'),
            statementMs: config.get('DATABASE_STATEMENT_TIMEOUT_MS'),
            preparedStatements: config.get('DATABASE_PREPARED_STATEMENTS'),
          }),
          // The migrations are the schema; each module registers the entities of its tables with forFeature, and
          // test/e2e/entity-schema.e2e-spec.ts checks that they describe it exactly.
          autoLoadEntities: true,
          // With tracing on, a span for each query TypeORM runs inside traced work.
          subscribers: activeTracing() ? [activeTracing()!.querySubscriber] : [],
        };
      },
    }),
  ],
})
export class DatabaseModule {}
