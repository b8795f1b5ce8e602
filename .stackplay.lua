-- The scenarios' project config (read from the folder stackplay runs in). It sets only what
-- `stackplay --audit scripts` allows: the known accessibility findings on the seeds' own
-- components, each documented in README.md ("Accessibility audit: findings on the seeds").
return {
  audit = {
    allow = {
      -- WalletCardStack (seed 004): `.accessibilityHidden(selected != nil && index != selected)`
      -- hides the pile's cards from VoiceOver while each still takes taps (a pile card is a
      -- Button that closes the wallet); VoiceOver closes it with the open card or escape.
      { type = "element_detection", kind = "wallet_card_stack", element = "card:*", rule = "hidden_hittable",
        reason = "seed 004: .accessibilityHidden(selected != nil && index != selected)" },
      -- NotificationStack (seed 000): `.accessibilityAction(named: "Clear") { if isSwipeable {
      -- onDismiss() } }` offers Clear on every card, and it does nothing without onDismiss.
      { type = "action", kind = "notification_stack", element = "card:*", rule = "does_nothing",
        reason = "seed 000: .accessibilityAction(named: \"Clear\") { if isSwipeable { onDismiss() } }" },
    },
  },
}
