const { jestDatabaseSetup } = require('@storage/testing');
module.exports = { ...require('../../jest.preset'), ...jestDatabaseSetup };
