const { jestDatabaseSetup } = require('@storage/testing');
module.exports = { ...require('../../jest.preset'), ...jestDatabaseSetup, testTimeout: 120_000 };
