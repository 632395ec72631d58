export { nodeBinary, NODE_LINE_MAJORS, NODE_LINES, type NodeLine } from './node-binary.ts';
export { isNodeLineError, NodeLineError, type NodeLineErrorCode } from './node-line-error.ts';
