import { createDataSource, migrate, query } from '@storage/persistence';
import { BENCH_UUID_FUNCTION, createScaleDataset, type ScaleDataset } from './scale-dataset';
import { databaseExists, scratchDatabase, type ScratchDatabase } from './scratch-database';

/**
 * A database of its own holding the dataset, for one measurement: generated into `name`, or with `reuse` a copy of
 * the dataset generated once and kept as a template database (named by its parameters), migrated to the code's
 * schema. At a million rentals, generating takes minutes; copying, seconds.
 */
export async function datasetDatabase(name: string, dataset: ScaleDataset, options: { reuse: boolean }): Promise<ScratchDatabase> {
  if (!options.reuse) return generated(name, dataset);
  // Named by every parameter of the dataset: a bench asking for another one never gets a copy of this one.
  const template = `bench_scheduler_template_${dataset.spread}_${dataset.businessDate.replace(/-/g, '')}_${dataset.rentals}_${dataset.facilities}_${dataset.historyMonths}`;
  if (!(await databaseExists(template))) await (await generated(template, dataset)).keep();
  const copy = await scratchDatabase(name, { template });
  await migrate(copy.url);
  return copy;
}

/** A scratch database with the dataset generated into it. */
async function generated(name: string, dataset: ScaleDataset): Promise<ScratchDatabase> {
  const database = await scratchDatabase(name);
  const dataSource = await createDataSource({ url: database.url, applicationName: 'bench-dataset-generation' }).initialize();
  try {
    await migrate(database.url);
    await query(dataSource, BENCH_UUID_FUNCTION);
    const generating = Date.now();
    await createScaleDataset(dataSource, dataset);
    process.stderr.write(`  ${dataset.rentals} rentals generated in ${((Date.now() - generating) / 1000).toFixed(1)} s\n`);
    return database;
  } catch (error) {
    await database.drop();
    throw error;
  } finally {
    await dataSource.destroy();
  }
}
