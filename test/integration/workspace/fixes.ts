import * as tf from '@tensorflow/tfjs';

export const layer = tf.layers.dense({ units: 7.5, inputShape: [4] });
