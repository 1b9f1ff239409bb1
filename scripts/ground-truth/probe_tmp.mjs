import * as tf from '@tensorflow/tfjs';
tf.setBackend('cpu');
const show = (code, build) => {
  try {
    const l = eval(code);
    build(l);
    console.log(code, '=>', l.countParams(), JSON.stringify(l.weights.map(w => [w.originalName, w.shape, w.trainable])));
  } catch (e) { console.log(code, 'THROWS', e.constructor.name, e.message.slice(0, 200)); }
};
const seq = (l) => tf.sequential({layers: [l]});
show("tf.layers.batchNormalization({inputShape: [64]})", seq);
show("tf.layers.batchNormalization({inputShape: [64], center: false, scale: false})", seq);
show("tf.layers.batchNormalization({inputShape: [8, 8, 3], axis: 1})", seq);
show("tf.layers.conv2d({filters: 32, kernelSize: 3, inputShape: [28, 28, 1]})", seq);
show("tf.layers.conv2d({filters: 32, kernelSize: [3, 5], inputShape: [28, 28, 2], useBias: false})", seq);
show("tf.layers.conv2d({filters: 32, kernelSize: 3, inputShape: [3, 28, 28], dataFormat: 'channelsFirst'})", seq);
show("tf.layers.conv1d({filters: 16, kernelSize: 5, inputShape: [100, 8]})", seq);
show("tf.layers.lstm({units: 32, inputShape: [10, 8]})", seq);
show("tf.layers.gru({units: 32, inputShape: [10, 8]})", seq);
show("tf.layers.gru({units: 32, inputShape: [10, 8], resetAfter: false})", seq);
show("tf.layers.simpleRNN({units: 32, inputShape: [10, 8]})", seq);
show("tf.layers.bidirectional({layer: tf.layers.lstm({units: 16}), inputShape: [10, 8]})", seq);
show("tf.layers.timeDistributed({layer: tf.layers.dense({units: 4}), inputShape: [10, 8]})", seq);
show("tf.layers.dense({units: 7.5, inputShape: [4]})", seq);
show("tf.layers.dense({units: -3, inputShape: [4]})", seq);
show("tf.layers.dense({units: 0, inputShape: [4]})", seq);
show("tf.layers.dense({units: 3, inputShape: [4.5]})", seq);
show("tf.layers.dense({units: 4, inputShape: [6], inputDim: 9})", seq);
show("tf.layers.dense({units: 4, batchInputShape: [null, 6], inputDim: 9})", seq);
show("tf.layers.embedding({inputDim: 100, outputDim: 8, inputLength: 5})", seq);
show("tf.layers.layerNormalization({inputShape: [10, 8]})", seq);
show("tf.layers.layerNormalization({inputShape: [10, 8], axis: [1, 2]})", seq);
show("tf.layers.conv2d({filters: 8, kernelSize: 3, inputShape: [28, 28, 1]})", (l) => tf.sequential({layers: [l, tf.layers.flatten(), tf.layers.dense({units: 10})]}));
