/** Every file of `generated/`, computed in memory from the definitions. */
import { stringify as toYaml } from 'yaml';
import { VERSIONS } from '../../schemas/registry.js';
import { htmlDocs } from './docs.js';
import { jsonSchemaFiles } from './jsonSchemaFiles.js';
import { openApiDocument, type DocumentScope } from './openapi.js';
import { typeDeclarations } from './types.js';
import { fastPathFile, fastPathModule } from './fastPath.js';
import { formatsModule } from './formatsModule.js';
import { validatorFile, validatorModule } from './validators.js';
import { vectorFiles } from './vectors.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every generated file, by path relative to `generated/`. */
export async function artefacts(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const documents: [string, DocumentScope][] = [
    ['v1', 'v1'],
    ['v2', 'v2'],
    ['openapi', 'all'],
  ];
  for (const [file, scope] of documents) {
    const doc = openApiDocument(scope);
    files.set(`openapi/${file}.json`, json(doc));
    files.set(`openapi/${file}.yaml`, toYaml(doc, { lineWidth: 0, aliasDuplicateObjects: false }));
  }
  for (const version of VERSIONS) {
    for (const [name, schema] of jsonSchemaFiles(version)) files.set(`schemas/${version}/${name}.json`, json(schema));
    files.set(`types/${version}.d.ts`, await typeDeclarations(version));
    for (const errors of ['first', 'all'] as const) {
      const { js, dts } = validatorModule(version, errors);
      const file = validatorFile(version, errors);
      files.set(`validators/${file}`, js);
      files.set(`validators/${file.replace(/\.js$/, '.d.ts')}`, dts);
    }
    const fast = fastPathModule(version);
    files.set(`fast/${fastPathFile(version)}`, fast.js);
    files.set(`fast/${fastPathFile(version).replace(/\.js$/, '.d.ts')}`, fast.dts);
  }
  files.set('validators/formats.js', await formatsModule());
  for (const [path, html] of await htmlDocs()) files.set(path, html);
  for (const [path, vector] of vectorFiles()) files.set(path, vector);
  return files;
}
