/** The shortest name `--config` takes for each kind of configuration, which the CLI's JSON gives as `name`. */
import * as assert from 'assert';
import { configurationName, namesConfiguration } from '../../src/core/analysis/documented';

suite('configuration names', () => {
  test('a preset, a factory and a configuration file by their own names; anything else by its context', () => {
    const cases: [string, string][] = [
      ["GPT.from_pretrained('gpt2-medium')", 'gpt2-medium'],
      ["build_encoder('it\\'s')", "it's"],
      ['vit_base()', 'vit_base'],
      ['build_sam_vit_b()', 'build_sam_vit_b'],
      ['Transformer(ModelArgs(**params.json))', 'params.json'],
      ['CLIP(**model_configs/ViT-B-32.json)', 'model_configs/ViT-B-32.json'],
      ['GPT(GPTConfig())', 'GPT(GPTConfig())'],
      ['GPT (line 202)', 'GPT (line 202)'],
      ['Net (../train.py, line 15)', 'Net (../train.py, line 15)'],
    ];
    for (const [model, name] of cases) {
      assert.strictEqual(configurationName(model), name, model);
      assert.ok(namesConfiguration(name, model), model);
    }
  });
});
