module.exports = { ...require('../../jest.preset'), ...require('@storage/testing').jestDatabaseSetup };
