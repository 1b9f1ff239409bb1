// The demo folder does not install TensorFlow.js or js-pytorch; these declarations keep the
// editor's own TypeScript checks quiet so that the Problems panel shows only Attention Lens.
declare module '@tensorflow/tfjs';
declare module 'js-pytorch';
