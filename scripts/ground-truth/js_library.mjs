// Bundled with the fixtures (one shared copy of js-pytorch), so that js_modules.mjs can tell the library's own
// classes, which a fixture passes on (`export const Linear = torch.nn.Linear`), from the fixture's classes.
export { torch } from 'js-pytorch';
