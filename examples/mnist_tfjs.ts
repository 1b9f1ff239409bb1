// A TensorFlow.js classifier for 28x28 MNIST digits: each dense layer shows its parameter count.
import * as tf from '@tensorflow/tfjs';

export function createModel() {
  const model = tf.sequential();
  model.add(tf.layers.dense({units: 128, inputShape: [784], activation: 'relu'}));
  model.add(tf.layers.dropout({rate: 0.2}));
  model.add(tf.layers.dense({units: 64, activation: 'relu'}));
  model.add(tf.layers.dense({units: 10, activation: 'softmax'}));
  model.compile({optimizer: 'adam', loss: 'categoricalCrossentropy', metrics: ['accuracy']});
  return model;
}

// The smallest useful model: a single softmax layer (logistic regression).
export const linearModel = tf.sequential({
  layers: [tf.layers.dense({units: 10, inputShape: [784]})],
});
