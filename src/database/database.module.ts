import { Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions, ensureDatabaseExists, runMigrationsExclusively } from './data-source';

/** Brings the schema up to date at start-up unless MIGRATIONS_RUN=false. */
@Injectable()
class SchemaMigrator implements OnModuleInit {
  private readonly logger = new Logger('Database');

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.get('MIGRATIONS_RUN')) return;
    const applied = await runMigrationsExclusively(this.dataSource);
    if (applied.length > 0) this.logger.log(`Applied migrations: ${applied.join(', ')}`);
  }
}

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => {
        const databaseUrl = config.get('DATABASE_URL');
        if (config.get('MIGRATIONS_RUN')) await ensureDatabaseExists(databaseUrl);
        return buildDataSourceOptions(databaseUrl, {
          connectMs: config.get('DATABASE_CONNECT_TIMEOUT_MS'),
          statementMs: config.get('DATABASE_STATEMENT_TIMEOUT_MS'),
        });
      },
    }),
  ],
  providers: [SchemaMigrator],
})
export class DatabaseModule {}
