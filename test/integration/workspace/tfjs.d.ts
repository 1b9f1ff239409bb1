// Lets the root `tsc -p .` (which includes test/integration/**) compile mnist.ts without
// installing TensorFlow.js: the fixture only has to look like real TF.js code to the extension.
declare module '@tensorflow/tfjs';
