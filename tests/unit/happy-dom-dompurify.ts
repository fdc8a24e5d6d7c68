// happy-dom is not a DOM that DOMPurify supports (cure53/DOMPurify#1457): on it, DOMPurify keeps scripts. Two
// gaps cause that, and this file closes both the way browsers behave, so that the sanitiser tests exercise
// our configuration rather than happy-dom's gaps. Import it before anything that loads DOMPurify, because
// DOMPurify captures these functions when its module loads. The sanitiser itself only runs in real browsers.

// 1. DOMPurify reads `nodeName` through Node.prototype's getter, which answers for every node in browsers;
//    happy-dom overrides it per subclass and leaves the base getter returning ''.
const baseNodeName = Object.getOwnPropertyDescriptor(Node.prototype, 'nodeName');
Object.defineProperty(Node.prototype, 'nodeName', {
  configurable: true,
  get(this: Node): string {
    for (
      let proto = Object.getPrototypeOf(this);
      proto && proto !== Node.prototype;
      proto = Object.getPrototypeOf(proto)
    ) {
      const own = Object.getOwnPropertyDescriptor(proto, 'nodeName');
      if (own?.get) return own.get.call(this) as string;
    }
    return baseNodeName?.get?.call(this) as string;
  },
});

// 2. DOMPurify removes the node its NodeIterator stands on, then asks for the next one. The DOM spec moves the
//    iterator back to the preceding node on removal; happy-dom's iterator loses its place and stops, which
//    leaves everything after the first removed element unsanitised.
const following = (node: Node, root: Node): Node | null => {
  if (node.firstChild) return node.firstChild;
  for (let current: Node | null = node; current && current !== root; current = current.parentNode) {
    if (current.nextSibling) return current.nextSibling;
  }
  return null;
};

const preceding = (node: Node, root: Node): Node | null => {
  if (node === root) return null;
  let previous = node.previousSibling;
  if (!previous) return node.parentNode;
  while (previous.lastChild) previous = previous.lastChild;
  return previous;
};

// The global Document is not the class that happy-dom's documents inherit from: patch where the method lives.
let documentProto: object | null = document;
while (documentProto && !Object.hasOwn(documentProto, 'createNodeIterator')) {
  documentProto = Object.getPrototypeOf(documentProto);
}
if (!documentProto) throw new Error('happy-dom has no createNodeIterator');

Object.defineProperty(documentProto, 'createNodeIterator', {
  configurable: true,
  writable: true,
  value: function createNodeIterator(root: Node, whatToShow = 0xffffffff): NodeIterator {
    let reference: Node | null = null;
    let before: Node | null = null;
    const shown = (node: Node) => ((1 << (node.nodeType - 1)) & whatToShow) !== 0;
    const iterator = {
      root,
      whatToShow,
      filter: null,
      referenceNode: root,
      pointerBeforeReferenceNode: true,
      nextNode(): Node | null {
        let node: Node | null;
        if (reference === null) node = root;
        else {
          const inTree = (n: Node | null) => n !== null && (n === root || root.contains(n));
          const from = inTree(reference) ? reference : inTree(before) ? before : null;
          node = from && following(from, root);
        }
        for (; node; node = following(node, root)) {
          if (shown(node)) {
            reference = node;
            before = preceding(node, root);
            return node;
          }
        }
        return null;
      },
      previousNode: () => null,
      detach: () => undefined,
    };
    return iterator as unknown as NodeIterator;
  },
});
