import { execFileSync } from 'node:child_process';
import path from 'node:path';

const SERVICE = path.resolve(__dirname, '../../dist/service.js');

/**
 * Swagger UI is a script for the browser that /docs serves as a file. The api used to import swagger-ui-dist's
 * index, which evaluates that 1.5 MB bundle in the server: 38 MB of RSS in every replica, whether or not anyone
 * opens /docs. The api's module tree, as `npm start` and its own process load it, must not evaluate it.
 */
describe("the api's module tree", () => {
  it('does not evaluate the Swagger UI bundle it serves', () => {
    const loaded = execFileSync(process.execPath, ['-e', `require(${JSON.stringify(SERVICE)}); console.log(JSON.stringify(Object.keys(require.cache)))`], {
      encoding: 'utf8',
    });
    const modules = JSON.parse(loaded) as string[];
    expect(modules.some((file) => file.endsWith(path.join('dist', 'service.js')))).toBe(true);
    expect(modules.filter((file) => file.includes(`${path.sep}swagger-ui-dist${path.sep}`)).map((file) => path.basename(file))).toEqual(['absolute-path.js']);
  });
});
