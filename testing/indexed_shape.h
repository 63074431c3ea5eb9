// testing/indexed_shape.h: a shape read from HLO text with its tiled
// indexer, for the tests of the index answers and their texts.
//
//   IndexedShape p = IndexedShapeOf("s4[5,3]{1,0:T(2,2)E(4)}");
//   AnswerIndex(p.shape, p.indexer, {3, 2}, ...);
#ifndef HLOLAYOUT_TESTING_INDEXED_SHAPE_H_
#define HLOLAYOUT_TESTING_INDEXED_SHAPE_H_

#include <string>

#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

struct IndexedShape {
  Shape shape;
  TiledIndexer indexer;
};

// `text` read as a shape with its indexer (CHECK-fails when either step
// fails: the text is the test's).
IndexedShape IndexedShapeOf(const std::string& text);

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_INDEXED_SHAPE_H_
