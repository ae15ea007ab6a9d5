const { jestDatabaseSetup } = require('@storage/testing');
module.exports = { ...require('../../jest.preset'), ...jestDatabaseSetup, testTimeout: 60_000 };
