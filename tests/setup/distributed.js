process.env.PAYGRID_TEST_MODE = 'distributed';
for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL']) {
  if (!process.env[name]) {
    throw new Error(
      `${name} is not set: run the distributed suites with "npm run test:integration" (it starts the infrastructure).`,
    );
  }
}
