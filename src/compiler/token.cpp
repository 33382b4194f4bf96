#include "compiler/token.h"

namespace metalcpu::msl {

const char* tokenKindName(TokenKind kind) {
    switch (kind) {
    case TokenKind::Identifier: return "identifier";
    case TokenKind::Number: return "number";
    case TokenKind::String: return "string";
    case TokenKind::Character: return "character";
    case TokenKind::Punctuator: return "punctuator";
    case TokenKind::Pragma: return "pragma";
    case TokenKind::End: return "end";
    }
    return "?";
}

} // namespace metalcpu::msl
