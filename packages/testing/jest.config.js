const { jestDatabaseSetup } = require('./dist');
module.exports = { ...require('../../jest.preset'), ...jestDatabaseSetup };
